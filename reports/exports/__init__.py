"""Exports of a class's skill reports: CSV, raw per-decision CSV, XLSX and PDF progress reports.

`rows.py` builds the rows (one per student × measure; one per recorded decision) and escapes
cells that a spreadsheet would run as a formula; `csv.py`, `xlsx.py` and `pdf.py` write them.
Exports only ever read one class, fetched through the teacher's own classes by the caller.
Reports carry student names only (no usernames or passwords).
"""
