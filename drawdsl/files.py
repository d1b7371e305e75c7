"""Writing a file whole or not at all, for tables and plots written by long runs.

An interrupted run (Ctrl-C, a full disk, an exception in the middle) must never leave a
truncated file that looks finished.  :func:`atomic_text` writes into a temporary file
beside the target and renames it over the target only when the writing succeeded.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "table.csv")
>>> with atomic_text(path) as handle:
...     _ = handle.write("a,b\\n")
>>> open(path).read()
'a,b\\n'
>>> try:
...     with atomic_text(path) as handle:
...         _ = handle.write("half")
...         raise KeyboardInterrupt
... except KeyboardInterrupt:
...     pass
>>> open(path).read(), sorted(os.listdir(folder))
('a,b\\n', ['table.csv'])
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from typing import IO

__all__ = ["atomic_text"]


@contextlib.contextmanager
def atomic_text(target: str | os.PathLike[str], newline: str | None = "") -> Iterator[IO[str]]:
    """Open ``target`` for writing text (UTF-8); it appears only if the block ends normally.

    The temporary file is created beside the target (same folder, so the rename is
    atomic) with the usual permissions, and removed if the block raises anything,
    ``KeyboardInterrupt`` included.
    """
    path = os.fspath(target)
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, "x", newline=newline, encoding="utf-8") as handle:
            yield handle
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
