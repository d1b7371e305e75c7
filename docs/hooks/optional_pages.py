"""MkDocs hook: leave out of the nav the optional pages whose files do not exist yet.

Only the pages named here are optional; a missing file anywhere else in the nav still
fails the strict build.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

OPTIONAL = {"war.md", "penney.md", "robustness.md"}


def _keep(entry: Any, docs: Path) -> bool:
    if isinstance(entry, dict):
        ((_, target),) = entry.items()
    else:
        target = entry
    return not (isinstance(target, str) and target in OPTIONAL and not (docs / target).is_file())


def on_config(config: Any) -> Any:
    docs = Path(config["docs_dir"])
    if config["nav"]:
        config["nav"] = [entry for entry in config["nav"] if _keep(entry, docs)]
    return config
