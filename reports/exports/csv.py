"""CSV: UTF-8 with a byte-order mark, so Excel opens names with accents correctly (and Arabic).
The header is in the requesting teacher's language; numbers stay locale-neutral (rows.py)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from .rows import safe_row

BOM = "\ufeff"


def write_csv(out, header: list[str], rows: Iterable[list]) -> None:
    """Write to a text file opened with newline="" (the BOM is written here)."""
    out.write(BOM)
    writer = csv.writer(out)
    writer.writerow([str(name) for name in header])  # lazily translated headers
    for row in rows:
        writer.writerow(safe_row(row))


def csv_bytes(header: list[str], rows: Iterable[list]) -> bytes:
    buffer = io.StringIO(newline="")
    write_csv(buffer, header, rows)
    return buffer.getvalue().encode("utf-8")
