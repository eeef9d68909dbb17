"""Telling open teacher dashboards that a class's reports or games changed. The message
carries no data: each dashboard consumer re-reads what its teacher may see."""

from live.groups import send_to_group


def dashboard_group(classroom_id: int) -> str:
    return f"dashboard.{classroom_id}"


def broadcast_dashboard_changed(*, classroom_id: int) -> None:
    send_to_group(dashboard_group(classroom_id),
                  {"type": "dashboard.changed", "classroom_id": classroom_id})
