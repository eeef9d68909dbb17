app_name = "privacy"

urlpatterns: list = []
