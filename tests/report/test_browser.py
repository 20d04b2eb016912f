"""The report in a real browser: headless Chromium renders it, sorting works, no console errors.

Skipped when selenium, Chromium or chromedriver is missing (CI installs the Debian packages
``chromium`` and ``chromium-driver``). Screenshots go to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_report import (  # type: ignore[import-not-found]  # sibling test module
    AUTO_INPUTS,
    AUTO_RESULTS,
    inputs,
    judge_card,
    summarization_records,
)

from sumjudge.report import write_report

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROME_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def _binary(*names: str) -> str | None:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    chromium = _binary("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    chromedriver = _binary("chromedriver")
    if chromium is None or chromedriver is None:
        pytest.skip(
            "chromium and chromedriver are needed (apt-get install chromium chromium-driver)"
        )
    options = webdriver.ChromeOptions()
    for arg in CHROME_ARGS:
        options.add_argument(arg)
    profile = tempfile.mkdtemp(prefix="sumjudge-chrome-")
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--window-size=1360,1700")
    options.binary_location = chromium
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_errors(drv: Any) -> list[dict[str, Any]]:
    return [e for e in drv.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]


def index_order(drv: Any) -> list[int]:
    bodies = drv.find_elements(By.CSS_SELECTOR, "table.items tbody.item")
    return [int(b.get_attribute("data-index")) for b in bodies]


def coherence_order(drv: Any) -> list[str]:
    bodies = drv.find_elements(By.CSS_SELECTOR, "table.items tbody.item")
    return [b.get_attribute("data-m-coherence") for b in bodies]


def test_summarization_report_renders_and_sorts(driver: Any, tmp_path: Path) -> None:
    path = write_report(summarization_records(), tmp_path / "report.html", judge_card(),
                        inputs=inputs())  # fmt: skip
    driver.get(path.resolve().as_uri())
    driver.get_log("browser")  # start from a clean log for this page

    tiles = driver.find_elements(By.CSS_SELECTOR, "#headline .tile")
    assert len(tiles) >= 4 and all(t.is_displayed() for t in tiles)
    charts = driver.find_elements(By.CSS_SELECTOR, "#charts svg.chart")
    assert len(charts) == 4
    assert all(c.size["width"] > 100 and c.size["height"] > 60 for c in charts)
    assert driver.find_element(By.ID, "judge-card").is_displayed()
    assert driver.find_element(By.ID, "provenance").is_displayed()
    assert index_order(driver) == [0, 1, 2, 3, 4]

    header = driver.find_element(By.CSS_SELECTOR, 'th[data-key="m-coherence"]')
    header.click()
    assert header.get_attribute("aria-sort") == "ascending"
    assert coherence_order(driver) == ["1", "2", "3", "3", ""]  # unscored rows last
    header.click()
    assert header.get_attribute("aria-sort") == "descending"
    assert coherence_order(driver) == ["3", "3", "2", "1", ""]

    # Details open under their own row and travel with it when sorting.
    first = driver.find_element(By.CSS_SELECTOR, "tbody.item button.toggle")
    detail = driver.find_element(By.ID, first.get_attribute("aria-controls"))
    assert not detail.is_displayed()
    first.click()
    assert detail.is_displayed() and first.get_attribute("aria-expanded") == "true"
    assert "explanation" in detail.text

    # Untrusted text stayed text: no injected image, no alert.
    assert driver.execute_script("return document.images.length") == 0
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018
    assert console_errors(driver) == []

    ARTIFACTS.mkdir(exist_ok=True)
    driver.execute_script("window.scrollTo(0, 0)")
    assert driver.save_screenshot(str(ARTIFACTS / "report.png"))


def test_autoeval_report_claims_and_expand_all(driver: Any, tmp_path: Path) -> None:
    path = write_report(AUTO_RESULTS, tmp_path / "auto.html", inputs=AUTO_INPUTS)
    driver.get(path.resolve().as_uri())
    driver.get_log("browser")

    driver.find_element(By.ID, "expand-all").click()
    details = driver.find_elements(By.CSS_SELECTOR, "tr.detail")
    assert details and all(d.is_displayed() for d in details)
    contradicted = driver.find_element(By.CSS_SELECTOR, "#q-0-2")
    assert contradicted.tag_name == "mark" and "$15 credit" in contradicted.text
    assert "con" in contradicted.get_attribute("class").split()
    rubric = driver.find_elements(By.CSS_SELECTOR, '.rubric-section[data-metric="adherence"]')
    assert rubric and rubric[0].is_displayed()

    # A claim's turn link scrolls to (and targets) the transcript turn.
    driver.find_element(By.CSS_SELECTOR, 'a[href="#t-0-5"]').click()
    assert driver.execute_script("return location.hash") == "#t-0-5"

    header = driver.find_element(By.CSS_SELECTOR, 'th[data-key="m-accuracy"]')
    header.click()
    header.click()
    assert index_order(driver)[0] == 1  # 100% accuracy first when descending

    assert driver.execute_script("return document.images.length") == 0
    assert console_errors(driver) == []
    ARTIFACTS.mkdir(exist_ok=True)
    driver.execute_script("window.scrollTo(0, 0)")
    assert driver.save_screenshot(str(ARTIFACTS / "report-autoeval.png"))
