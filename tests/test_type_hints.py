"""The public API's type hints resolve at runtime: ``typing.get_type_hints`` on every public class's
``__init__`` and every public function of :mod:`dpteach.plots` and :mod:`dpteach.widgets` (and of the
maths, ``dp.prelude.__all__``). A hint that names a private or missing name (``plots._Updatable`` on
``Interactive.__init__``, once) fails here, by name, as it fails in an IDE, Sphinx or a type checker
run on a notebook.
"""

import inspect
import typing

import pytest

import dpteach as dp
from dpteach import plots, widgets


def _public(module):
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isclass(obj) and typing.Protocol not in getattr(obj, "__mro__", ()) or inspect.isfunction(obj):
            yield f"{module.__name__}.{name}", obj


PUBLIC = dict(p for module in (plots, widgets, dp.prelude) for p in _public(module))


def test_the_central_widget_class_is_among_them():
    assert "dpteach.widgets.Interactive" in PUBLIC and len(PUBLIC) > 100


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_type_hints_resolve(name):
    obj = PUBLIC[name]
    target = obj.__init__ if inspect.isclass(obj) else obj
    if target is object.__init__:
        return
    hints = typing.get_type_hints(target)
    if name == "dpteach.widgets.Interactive":
        assert hints["figure"] is plots.UpdatableFigure


def test_every_figure_is_an_updatable_figure():
    """The protocol ``Interactive`` names says what a figure has: every public figure class has it."""
    wanted = {n for n, v in vars(plots.UpdatableFigure).items() if callable(v) and not n.startswith("_")}
    figures = [obj for name, obj in PUBLIC.items() if name.startswith("dpteach.plots.") and name.endswith("Figure")]
    assert figures
    for figure in figures:
        assert wanted <= set(dir(figure)), figure.__name__
