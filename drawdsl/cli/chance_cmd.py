"""Command group placeholder: filled in by its issue."""

from __future__ import annotations

from typing import Any

__all__ = ["add_commands"]


def add_commands(sub: Any) -> None:
    """Add this group's commands (none yet)."""
