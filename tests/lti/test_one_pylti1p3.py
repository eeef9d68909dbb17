"""django-lti requires the `pylti1p3` distribution; its fork pylti1p3next installs the same
`pylti1p3` package. With both installed pip lays one over the other, and which one is imported
depends on the order of installation. requirements.txt pins the original alone (docs/lti.md)."""

from importlib import metadata
from pathlib import Path

import pylti1p3.message_launch


def test_the_imported_pylti1p3_is_the_one_distribution_django_lti_requires():
    assert metadata.packages_distributions()["pylti1p3"] == ["PyLTI1p3"]
    dist = metadata.distribution("PyLTI1p3")
    assert dist.version == "2.0.0"
    owned = {Path(dist.locate_file(file)).resolve() for file in dist.files}
    assert Path(pylti1p3.message_launch.__file__).resolve() in owned
    assert any(req.replace(" ", "").lower().startswith("pylti1p3>=") for req in metadata.requires("django-lti"))
