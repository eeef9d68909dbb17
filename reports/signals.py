"""What the skill reports tell the apps above them. reports never imports them (lti sits above
reports in the import layers): they listen to these signals instead, connected in their
AppConfig.ready().

- `class_reports_changed(classroom_id)`: a class's reports were made again from new evidence
  (a game's report, a recompute, a student forgotten: `services.class_reports_refresh`), or
  the periodic rebuild changed who is flagged "needs help" on what. Sent once the change is
  committed (outside a transaction: at once), robustly: a failing receiver is logged and the
  others still run. The sender is the Classroom model. lti posts the class's changed grades.
"""

from django.dispatch import Signal

class_reports_changed = Signal()
