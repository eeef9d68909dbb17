"""Classroom pages, one module per subject. Views stay thin: forms check, services write,
selectors read (and decide who may see what: objects outside reach are 404)."""
