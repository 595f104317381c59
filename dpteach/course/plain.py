"""Plain data between a sandbox and the grader: JSON with arrays as base64 ``.npy``, never pickle.

What a student's code hands back (a function's outputs, a notebook's answers) is read with
:func:`decode`, which refuses anything that is not numbers, booleans, strings, lists, tuples, dicts
or numeric arrays (``allow_pickle=False``): the grader never unpickles what a sandbox sends.
"""

from __future__ import annotations

import base64
import io
import math
from typing import Any


def encode(value: Any, depth: int = 0) -> Any:
    """Plain data as JSON-able objects (arrays as base64 .npy); TypeError for anything else."""
    import numbers

    import numpy as np
    if depth > 20:
        raise TypeError("data nested too deeply")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (np.integer, np.floating)):
        return encode(value.item(), depth)     # as the checkers' own plain data: numpy scalars become numbers
    if isinstance(value, numbers.Integral):
        return {"int": str(int(value))}
    if isinstance(value, numbers.Real):
        number = float(value)
        return number if math.isfinite(number) else {"float": repr(number)}
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            raise TypeError(f"an array of dtype {value.dtype} (only numbers or booleans can be graded)")
        buffer = io.BytesIO()
        np.save(buffer, np.ascontiguousarray(value), allow_pickle=False)
        return {"ndarray": base64.b64encode(buffer.getvalue()).decode("ascii")}
    if isinstance(value, list):
        return [encode(item, depth + 1) for item in value]
    if isinstance(value, tuple):
        return {"tuple": [encode(item, depth + 1) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[str(key), encode(item, depth + 1)] for key, item in value.items()]}
    raise TypeError(f"a value of type {type(value).__name__}")


def decode(data: Any, depth: int = 0) -> Any:
    """The inverse of :func:`encode`, for data that may be garbage: ValueError when it is not valid."""
    import numpy as np
    if depth > 21:
        raise ValueError("data nested too deeply")
    if data is None or isinstance(data, (bool, str, float, int)):
        return data
    if isinstance(data, list):
        return [decode(item, depth + 1) for item in data]
    if isinstance(data, dict) and len(data) == 1:
        (kind, payload), = data.items()
        if kind == "int" and isinstance(payload, str):
            return int(payload)
        if kind == "float" and payload in ("nan", "inf", "-inf"):
            return float(payload)
        if kind == "tuple" and isinstance(payload, list):
            return tuple(decode(item, depth + 1) for item in payload)
        if kind == "dict" and isinstance(payload, list) and all(isinstance(p, list) and len(p) == 2 for p in payload):
            pairs = [(decode(key, depth + 1), decode(item, depth + 1)) for key, item in payload]
            try:
                return dict(pairs)
            except TypeError as error:
                raise ValueError(f"unusable dict key: {error}") from None
        if kind == "ndarray" and isinstance(payload, str):
            try:
                array = np.load(io.BytesIO(base64.b64decode(payload, validate=True)), allow_pickle=False)
            except Exception as error:   # whatever np.load makes of garbage, it is garbage
                raise ValueError(f"not an .npy array: {error}") from None
            if not isinstance(array, np.ndarray) or array.dtype.kind not in "biuf":
                raise ValueError("not an array of numbers or booleans")
            return array
    raise ValueError(f"not plain data: {str(data)[:60]!r}")
