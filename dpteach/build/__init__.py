"""The build wing: what turns the chapters into editions for their audiences.

Nothing here is imported by ``import dpteach``: these are tools an author or an instructor runs,
from the project's root (the folder holding ``notebooks/``), through one entry point::

    python -m dpteach.build COMMAND ...

They read and write relative to the folder they are run in (or ``--root``), never beside the
installed package, so a second clone builds into its own ``build/``.
"""
