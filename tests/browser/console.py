"""Drives the instructor console in a real headless Chromium (Debian's chromium and
chromium-driver, through Selenium's WebDriver client), as an instructor would: log in, see the
live seats, assign an exercise to one with clicks, start it, watch it run and its result
arrive, open the trainee's progress chart, and set the exercise's proficiency threshold. Called
by tests/console.rs with the console's URL; exits non-zero naming the step that failed.
Screenshots go to --shots."""

import argparse
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--password", required=True)
    ap.add_argument("--seats", type=int, required=True)
    ap.add_argument("--seat", required=True, help="the seat to assign")
    ap.add_argument("--exercise", required=True)
    ap.add_argument("--trainee", required=True)
    ap.add_argument("--shots", required=True, help="folder for screenshots")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--driver", default="/usr/bin/chromedriver")
    a = ap.parse_args()

    options = Options()
    options.binary_location = a.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service(executable_path=a.driver), options=options)
    # The page redraws five times a second: an element read mid-redraw is read again.
    stale = [StaleElementReferenceException]
    wait = WebDriverWait(browser, 60, poll_frequency=0.1, ignored_exceptions=stale)
    step = "open the page"
    try:
        browser.get(a.url)
        step = "see the login form"
        wait.until(lambda b: b.find_element(By.ID, "login").is_displayed())
        step = "a wrong password is refused"
        browser.find_element(By.ID, "login-password").send_keys("not the password")
        browser.find_element(By.ID, "login-submit").click()
        wait.until(lambda b: "wrong password" in b.find_element(By.ID, "login-error").text)
        step = "log in"
        field = browser.find_element(By.ID, "login-password")
        field.clear()
        field.send_keys(a.password)
        browser.find_element(By.ID, "login-submit").click()
        step = f"see {a.seats} live seats"
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, ".seat-card:not(.offline)")) == a.seats)
        # Live: a seat's status rate is shown and updates without a reload.
        wait.until(lambda b: all(" Hz" in c.text and not c.text.endswith("0.0 Hz")
                                 for c in b.find_elements(By.CSS_SELECTOR, ".seat-card")))
        browser.save_screenshot(f"{a.shots}/console-class.png")
        step = f"select seat {a.seat}"
        browser.find_element(By.CSS_SELECTOR, f'.seat-card[data-seat="{a.seat}"]').click()
        wait.until(lambda b: b.find_element(By.ID, "detail").is_displayed())
        step = f"assign {a.exercise}"
        Select(browser.find_element(By.ID, "assign-exercise")).select_by_value(a.exercise)
        browser.find_element(By.ID, "assign-trainee").send_keys(a.trainee)
        browser.find_element(By.ID, "assign-button").click()
        wait.until(lambda b: b.find_element(By.ID, "reply").text == "done")
        wait.until(lambda b: b.find_element(By.CSS_SELECTOR, f'.seat-card[data-seat="{a.seat}"]')
                   .get_attribute("data-state") == "ready")
        step = "start it"
        browser.find_element(By.ID, "cmd-start").click()
        wait.until(lambda b: b.find_element(By.CSS_SELECTOR, f'.seat-card[data-seat="{a.seat}"]')
                   .get_attribute("data-state") == "running")
        time.sleep(1.0)
        browser.save_screenshot(f"{a.shots}/console-running.png")
        step = "see its result arrive"
        WebDriverWait(browser, 180, poll_frequency=0.2, ignored_exceptions=stale).until(
            lambda b: b.find_element(By.CSS_SELECTOR, f'.seat-card[data-seat="{a.seat}"]')
            .get_attribute("data-state") == "finished")
        wait.until(lambda b: "stored 1" in b.find_element(By.ID, "counters").text)
        step = "open the trainee's progress chart"
        browser.find_element(By.ID, "roster-tab").click()
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, f'.trainee-row[data-trainee="{a.trainee}"]'))
        browser.find_element(By.CSS_SELECTOR, f'.trainee-row[data-trainee="{a.trainee}"]').click()
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#progress-chart circle.point"))
        step = "open the attempt's after-action view"
        browser.find_element(By.CSS_SELECTOR, ".attempt-row").click()
        wait.until(lambda b: "After-action" in b.find_element(By.ID, "attempt").text)
        result = browser.find_element(By.ID, "attempt").text
        browser.save_screenshot(f"{a.shots}/console-trainee.png")
        step = "set the exercise's proficiency threshold"
        row = f'#threshold-table tr[data-exercise="{a.exercise}"]'
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, row))
        reps = browser.find_element(By.CSS_SELECTOR, f"{row} .t-reps")
        reps.clear()
        reps.send_keys("0.5")
        browser.find_element(By.CSS_SELECTOR, f"{row} .t-save").click()
        wait.until(lambda b: b.find_element(By.ID, "threshold-reply").text == f"{a.exercise}: saved")
        wait.until(lambda b: "instructor" in b.find_element(By.CSS_SELECTOR, row).text)
        print(f"browser: ok; attempt view: {result.splitlines()[1] if len(result.splitlines()) > 1 else result}")
    except Exception as e:  # noqa: BLE001 - any failure is the step's
        browser.save_screenshot(f"{a.shots}/console-failed.png")
        print(f"browser: failed at step '{step}': {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
