from django.apps import AppConfig


class DevtoolsConfig(AppConfig):
    """Demo data, simulated students and classes, benchmarks and the echo socket: tools for
    developers. Installed by the local and test settings only; production never imports it."""

    name = "devtools"
    verbose_name = "Developer tools"
