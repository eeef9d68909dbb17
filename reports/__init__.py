"""Skill reports: evidence from recorded moves, roll-ups, "needs help" flags, dashboard, exports.

A sub-app of `classroom` (label "reports") so the top-level layout stays as designed.
"""
