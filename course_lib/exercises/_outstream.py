"""The kernel's stdout/stderr when it grades: output leaves in bounded messages.

ipykernel's ``OutStream`` collects what a cell prints for 0.2 s and sends it as one
message, so a loop printing fast, or one ``print`` of a gigabyte, becomes one huge
message. :class:`BoundedOutStream` sends at least every :data:`CHUNK` characters
(flushing, which waits for the send), so the grader receives the output in small
messages, can drop what is past its cap as it arrives, and interrupts the cell.

This is a courtesy of the kernel, not a defence: a notebook can replace ``sys.stdout``.
The grader's own limits (the largest message it accepts, the caps it counts) do not
depend on it.
"""

from __future__ import annotations

from ipykernel.iostream import OutStream

__all__ = ["CHUNK", "BoundedOutStream"]

#: Characters sent per message at most (before the 0.2 s flush would send them).
CHUNK = 1 << 16


class BoundedOutStream(OutStream):
    """An ``OutStream`` that flushes every :data:`CHUNK` characters."""

    _pending = 0

    def write(self, string: str) -> int | None:  # type: ignore[override]
        if not isinstance(string, str):
            return super().write(string)
        for start in range(0, len(string), CHUNK):
            part = string[start:start + CHUNK]
            super().write(part)
            self._pending += len(part)
            if self._pending >= CHUNK:
                self._pending = 0
                self.flush()
        return len(string)
