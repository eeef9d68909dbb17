"""What classroom tells the apps above it. Classroom never imports reports or devtools: they
listen to these signals instead (connected in their AppConfig.ready()).

- `student_removed(student)`: a student was taken off the class list and can no longer sign
  in. Sent at once, inside the caller's transaction (a receiver's error reaches the caller);
  the sender is the User model. reports forgets the student's report data.
"""

from django.dispatch import Signal

student_removed = Signal()
