"""Telling open teacher dashboards that a class's reports or games changed. The message
carries no data: each dashboard consumer re-reads what its teacher may see."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def dashboard_group(classroom_id: int) -> str:
    return f"dashboard.{classroom_id}"


def broadcast_dashboard_changed(*, classroom_id: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(dashboard_group(classroom_id),
                                        {"type": "dashboard.changed", "classroom_id": classroom_id})
