"""`sumjudge review` in real headless Chromium: label by keyboard and by mouse, reload.

The results come from the offline judge on the bundled example (`sumjudge evaluate
--example --model local-lexical`). Skipped without selenium, Chromium or chromedriver
(Debian: chromium, chromium-driver). The screenshot goes to a temporary folder
(`$TMPDIR/sumjudge-test-artifacts/review.png`).
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from review_data import HOSTILE, ReviewProcess  # type: ignore[import-not-found]

from sumjudge.align import latest, read_labels

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

SHOTS = Path(tempfile.gettempdir()) / "sumjudge-test-artifacts"
CHROME_ARGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--window-size=1400,1000")  # fmt: skip


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    chromium = next(
        (p for n in ("chromium", "chromium-browser", "google-chrome") if (p := shutil.which(n))),
        None,
    )
    chromedriver = shutil.which("chromedriver")
    if chromium is None or chromedriver is None:
        pytest.skip("chromium and chromedriver are needed (apt-get install chromium-driver)")
    options = webdriver.ChromeOptions()
    for arg in CHROME_ARGS:
        options.add_argument(arg)
    profile = tempfile.mkdtemp(prefix="sumjudge-chrome-")
    options.add_argument(f"--user-data-dir={profile}")
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


def wait_for(drv: Any, condition: Any, what: str) -> Any:
    return WebDriverWait(drv, 10).until(lambda d: condition(d), message=what)


def status(drv: Any) -> str:
    return str(drv.find_element(By.ID, "status").text)


def position(drv: Any) -> str:
    return str(drv.find_element(By.ID, "position").text)


def keys(drv: Any, *sequence: str) -> None:
    ActionChains(drv).send_keys(*sequence).perform()


def metric_card(drv: Any, name: str) -> Any:
    return drv.find_element(By.CSS_SELECTOR, f'.metric[data-metric="{name}"]')


def pressed(drv: Any) -> dict[str, list[str]]:
    """Which buttons show as chosen, per metric (and "rating")."""
    out: dict[str, list[str]] = {}
    for card in drv.find_elements(By.CSS_SELECTOR, ".metric"):
        on = card.find_elements(By.CSS_SELECTOR, 'button[aria-pressed="true"]')
        out[card.get_attribute("data-metric")] = [b.text for b in on]
    on = drv.find_elements(By.CSS_SELECTOR, '#rating button[aria-pressed="true"]')
    out["rating"] = [b.get_attribute("data-rating") for b in on]
    return out


def saved(drv: Any) -> None:
    wait_for(drv, lambda d: status(d).startswith("saved"), "the label to be saved")


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The bundled example judged by the offline judge, and its input file."""
    out = tmp_path_factory.mktemp("judged") / "results.jsonl"
    cmd = [sys.executable, "-m", "sumjudge.cli.main", "evaluate", "--example", "--model",
           "local-lexical", "-o", str(out), "--no-progress", "--no-cache"]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True, timeout=240)
    data = resources.files("sumjudge.datasets").joinpath("data/simple_summarization.jsonl")
    return out, Path(str(data))


def test_label_by_keyboard_and_mouse_then_reload(driver: Any, judged: tuple[Path, Path]) -> None:
    results, inputs = judged
    log = results.with_name("results.labels.jsonl")
    argv = [str(results), "--inputs", str(inputs), "--order", "input", "--reviewer", "ann"]
    with ReviewProcess(*argv) as server:
        driver.get(server.url)
        wait_for(driver, lambda d: position(d) == "1 of 6", "the first item")
        driver.get_log("browser")
        assert driver.find_element(By.ID, "progress-text").text == "0 / 6 labelled"
        turns = driver.find_elements(By.CSS_SELECTOR, "#source .turn")
        assert len(turns) > 5, "the meeting is shown turn by turn"
        assert turns[0].find_element(By.CSS_SELECTOR, ".sp").text.startswith("Rina")
        first_id = driver.find_element(By.ID, "item-meta").text.split()[1]

        # Item 1, keyboard only: focus starts on the first metric.
        keys(driver, "3", Keys.ARROW_DOWN, "a", Keys.ARROW_DOWN, "d", Keys.ARROW_DOWN, "1")
        keys(driver, "g", "n", "typed, not clicked", Keys.ENTER)
        wait_for(driver, lambda d: position(d) == "2 of 6", "the second item")
        wait_for(driver, lambda d: "1 / 6" in d.find_element(By.ID, "progress-text").text,
                 "progress 1 / 6")  # fmt: skip

        # Item 2, mouse only.
        second_id = driver.find_element(By.ID, "item-meta").text.split()[1]
        metric_card(driver, "coherence").find_element(By.XPATH, ".//button[.='1']").click()
        saved(driver)
        fluency = metric_card(driver, "fluency")
        fluency.find_element(By.XPATH, ".//button[.='agree']").click()
        driver.find_element(By.CSS_SELECTOR, '#rating button[data-rating="bad"]').click()
        note = driver.find_element(By.ID, "note")
        note.click()
        note.send_keys(f"clicked {HOSTILE}")
        driver.find_element(By.ID, "next").click()
        wait_for(driver, lambda d: position(d) == "3 of 6", "the third item")

        # Item 3: rating by key, a score on the second metric, j to go on.
        third_id = driver.find_element(By.ID, "item-meta").text.split()[1]
        keys(driver, Keys.ARROW_DOWN, "2", "i")
        saved(driver)
        keys(driver, "j")
        wait_for(driver, lambda d: position(d) == "4 of 6", "the fourth item")
        wait_for(driver, lambda d: "3 / 6" in d.find_element(By.ID, "progress-text").text,
                 "progress 3 / 6")  # fmt: skip

        # Reload: progress says 3 of 6, the page opens at the first unlabelled item, and
        # going back shows the labels as given.
        driver.refresh()
        wait_for(driver, lambda d: position(d) == "4 of 6", "the reloaded page")
        assert driver.find_element(By.ID, "progress-text").text == "3 / 6 labelled"
        assert driver.find_element(By.ID, "progress").get_attribute("value") == "3"
        keys(driver, "k")
        wait_for(driver, lambda d: position(d) == "3 of 6", "back to the third item")
        assert pressed(driver)["rating"] == ["incomplete"]
        keys(driver, "k")
        wait_for(driver, lambda d: position(d) == "2 of 6", "back to the second item")
        shown = pressed(driver)
        assert shown["rating"] == ["bad"] and shown["fluency"] == ["agree"]
        assert shown["coherence"][0] == "1"
        assert driver.find_element(By.ID, "note").get_attribute("value") == f"clicked {HOSTILE}"
        keys(driver, "k")
        wait_for(driver, lambda d: position(d) == "1 of 6", "back to the first item")
        shown = pressed(driver)
        assert shown["rating"] == ["good"]
        m = list(shown)[:4]
        # A score of your own shows "disagree" too when it differs from the judge's.
        assert shown[m[0]][0] == "3" and shown[m[1]] == ["agree"]
        assert shown[m[2]] == ["disagree"] and shown[m[3]][0] == "1"

        # The help lists the keys; ? opens and closes it.
        keys(driver, "?")
        help_box = driver.find_element(By.ID, "help")
        assert help_box.is_displayed() and "agree / disagree" in help_box.text
        keys(driver, "?")
        assert not help_box.is_displayed()

        # A typed note with markup stayed text; nothing ran; no CSP or script error.
        assert driver.execute_script("return document.images.length") == 0
        assert "pwned" not in driver.title
        assert console_errors(driver) == []
        SHOTS.mkdir(exist_ok=True)
        keys(driver, "j")
        wait_for(driver, lambda d: position(d) == "2 of 6", "the second item again")
        assert driver.save_screenshot(str(SHOTS / "review.png"))
        code, lines = server.stop(signal.SIGINT)
    assert code == 0 and "written to" in lines[-1]

    labels = latest(read_labels(log))
    assert set(labels) == {(first_id, "ann"), (second_id, "ann"), (third_id, "ann")}
    one, two, three = (labels[(i, "ann")] for i in (first_id, second_id, third_id))
    metrics = m  # in the page's order
    assert one.rating == "good" and one.note == "typed, not clicked"
    assert one.scores[metrics[0]] == 3 and one.agree[metrics[1]] is True
    assert one.agree[metrics[2]] is False and one.scores[metrics[3]] == 1
    assert one.agree[metrics[0]] is (one.judge["scores"][metrics[0]] == 3)
    assert one.judge["name"] == "local-lexical"
    # One line per change, each the label as it was then: the first has only the score.
    lines = [x for x in read_labels(log) if x.id == first_id]
    assert len(lines) == 6 and dict(lines[0].scores) == {metrics[0]: 3}
    assert lines[0].rating is None and lines[-1] == one
    assert two.rating == "bad" and two.agree["fluency"] is True and two.scores["coherence"] == 1
    assert two.note == f"clicked {HOSTILE}"
    assert three.rating == "incomplete" and three.scores[metrics[1]] == 2


def test_transcript_evidence_and_untrusted_text(driver: Any, run_files: tuple[Path, Path]) -> None:
    results, inputs = run_files
    with ReviewProcess(str(results), "--inputs", str(inputs), "--order", "input") as server:
        driver.get(server.url)
        wait_for(driver, lambda d: position(d) == "1 of 5", "the first item")
        driver.get_log("browser")
        turns = driver.find_elements(By.CSS_SELECTOR, "#source .turn")
        assert [t.find_element(By.CSS_SELECTOR, ".sp").text for t in turns[:2]] == [
            "Agent (support)",
            "Customer",
        ]
        (mark,) = driver.find_elements(By.CSS_SELECTOR, "#source mark")
        assert mark.text == "I will issue a refund of $15 today"
        assert mark.get_attribute("title").startswith("relevance: leaves out")
        # The hostile markup in source, summary and explanations is shown as text.
        assert HOSTILE in turns[3].text and HOSTILE in driver.find_element(By.ID, "summary").text
        assert HOSTILE in metric_card(driver, "coherence").text
        assert driver.execute_script("return document.images.length") == 0
        assert driver.execute_script("return document.scripts.length") == 1  # ours
        assert "pwned" not in driver.title
        assert console_errors(driver) == []
        SHOTS.mkdir(exist_ok=True)
        driver.execute_script("document.getElementById('source').scrollIntoView()")
        assert driver.save_screenshot(str(SHOTS / "review-transcript.png"))
        code, _ = server.stop(signal.SIGINT)
    assert code == 0
