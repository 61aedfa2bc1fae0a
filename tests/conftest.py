"""Shared test configuration: a deterministic hypothesis profile, so every run checks the same
cases."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "deterministic",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "thorough", parent=settings.get_profile("deterministic"), max_examples=2000
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))
