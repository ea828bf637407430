"""pytest: an "errdex" section in each failure's report, with the answer of a
running errdex serve for the exception the test raised."""

import traceback

import pytest

from errdex import explain


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    try:
        if report.failed and call.excinfo is not None:
            info = call.excinfo
            text = "".join(traceback.format_exception(info.type, info.value, info.tb))
            answer = explain(text)
            if answer:
                report.sections.append(("errdex", answer))
    except Exception:
        pass
