from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        # `{% translate "constant" %}` said once per process and language (the people's
        # language is this app's: accounts/language.py).
        from accounts import template_i18n

        template_i18n.install()
