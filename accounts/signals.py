"""What accounts tells the apps above it (they connect in their AppConfig.ready()).

- `sessions_ended(user_id, keep_session_key)`: every session of the user but the one named
  ("": none) was just ended, and the change is committed (`services.user_end_sessions`).
  Their pages are already signed out; games closes their open sockets
  (live/signed_out.py). Sent robustly: a failing receiver is logged.
"""

from django.dispatch import Signal

sessions_ended = Signal()
