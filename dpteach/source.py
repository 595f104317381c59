"""Show the real source of a dpteach function in a notebook (the chapter shows, the package holds)."""

from __future__ import annotations

import inspect


class Source:
    """A function's source code; renders as highlighted code in a notebook and as text elsewhere."""

    def __init__(self, obj) -> None:
        self.name = getattr(obj, "__qualname__", repr(obj))
        self.module = getattr(obj, "__module__", "")
        self.text = inspect.getsource(obj)

    def __repr__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:
        return f"`{self.module}.{self.name}`\n\n```python\n{self.text}```"


def show_source(obj, *, docstring: bool = False) -> Source:
    """Return the source of ``obj`` for display; with ``docstring=False`` the docstring is dropped.

    The notebook then shows exactly the code it runs: there is never a second copy in a cell.
    """
    if not (inspect.isfunction(obj) or inspect.isclass(obj) or inspect.ismethod(obj)):
        raise TypeError(f"show_source needs a function or class, got {obj!r}")
    src = Source(obj)
    if not docstring and obj.__doc__:
        lines = src.text.splitlines(keepends=True)
        text = "".join(lines)
        doc_start = text.find('"""')
        doc_end = text.find('"""', doc_start + 3)
        if doc_start != -1 and doc_end != -1:
            end = text.find("\n", doc_end) + 1
            src.text = text[:doc_start].rstrip(" ") + text[end:]
            src.text = src.text.replace("\n\n\n", "\n\n")
    return src
