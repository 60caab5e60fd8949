/// `GET /`: the status page for an operator's phone (SPEC §14). One self-contained document: its
/// style and script are inline and the Content-Security-Policy allows exactly those two (by their
/// SHA-256), fetches and images from this server, and the screenshot as a blob: URL; nothing else,
/// so a file name shown in it can never become markup or reach another site.
///
/// The script reads /status without the token; /screenshot and /control need it: the operator
/// enters it once, it is kept in the tab's sessionStorage and sent as "Authorization: Bearer".
/// The status and the screenshot are fetched again a few seconds after the last answer, only while
/// the page is visible. Text from the kiosk goes into the page as text (textContent), never as
/// markup. `StatusPageTests` checks the hashes; the browser test (Tests/EndToEnd/test_status_page.py)
/// that Chromium runs it without a CSP violation.
enum StatusPage {
    static let contentType = "text/html; charset=utf-8"

    /// The style's and the script's SHA-256, base64: what the policy allows. A test recomputes them.
    static let styleHash = "sha256-2ptrs24olPTG3rX9dakmm3RN1jNw/8j89aUz1EQRPlM="
    static let scriptHash = "sha256-3I7MmrtkIFmaeSymhmhIwKzEKaBi52KohTnRGqxqcdE="

    static let contentSecurityPolicy = [
        "default-src 'none'",
        "script-src '\(scriptHash)'",
        "style-src '\(styleHash)'",
        "img-src 'self' blob: data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static let html: [UInt8] = Array((head + "<style>" + style + "</style>\n</head>\n" + body
                                      + "<script>" + script + "</script>\n</body>\n</html>\n").utf8)

    private static let head = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Vitrine</title>
        <link rel="icon" href="data:,">

        """#

    static let style = #"""

        :root { color-scheme: dark; --fg: #e8e8e8; --dim: #9a9a9a; --line: #333; --accent: #4d9fff; --bad: #ff6b5e; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0 auto; max-width: 44rem; padding: 12px; background: #121212; color: var(--fg);
               font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        header { display: flex; align-items: baseline; justify-content: space-between; gap: 8px; }
        h1 { font-size: 1.4rem; margin: 0 0 8px; }
        h2 { font-size: 1rem; margin: 16px 0 6px; color: var(--dim); font-weight: 600; }
        #version { color: var(--dim); font-size: .85rem; }
        #screen { position: relative; background: #000; border: 1px solid var(--line); border-radius: 6px;
                  aspect-ratio: 16 / 10; overflow: hidden; display: flex; align-items: center; justify-content: center; }
        #screenshot { display: block; width: 100%; height: 100%; object-fit: contain; }
        #screen-note { position: absolute; margin: 0; padding: 12px; color: var(--dim); text-align: center; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 0; }
        dt { color: var(--dim); }
        dd { margin: 0; overflow-wrap: anywhere; }
        form { display: grid; gap: 8px; }
        input { font: inherit; padding: 10px; border-radius: 6px; border: 1px solid var(--line); background: #1e1e1e; color: var(--fg); }
        button { font: inherit; min-height: 44px; padding: 8px 12px; border-radius: 6px; border: 1px solid var(--line);
                 background: #262626; color: var(--fg); }
        button:active { background: #333; }
        button:disabled { opacity: .5; }
        button.primary { background: var(--accent); border-color: var(--accent); color: #000; font-weight: 600; }
        .buttons { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
        #forget { margin-top: 8px; width: 100%; background: none; color: var(--dim); }
        #message { min-height: 1.4em; margin: 10px 0 0; }
        .error { color: var(--bad); }

        """#

    private static let body = #"""
        <body>
        <header><h1>Vitrine</h1><span id="version"></span></header>
        <div id="screen"><img id="screenshot" alt="What the kiosk shows" hidden><p id="screen-note">Enter the token to see the screen.</p></div>
        <h2>Status</h2>
        <p id="status-error" class="error" hidden></p>
        <dl>
        <dt>State</dt><dd id="state">…</dd>
        <dt>Showing</dt><dd id="current">…</dd>
        <dt>Photos</dt><dd id="count">…</dd>
        <dt>Screen</dt><dd id="screen-on">…</dd>
        <dt>Display</dt><dd id="display">…</dd>
        <dt>Running for</dt><dd id="uptime">…</dd>
        </dl>
        <h2>Control</h2>
        <form id="token-form" method="post">
        <label for="token">Token (the contents of remote.token_file)</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required>
        <button class="primary" type="submit">Use the token</button>
        </form>
        <div id="actions" hidden>
        <div class="buttons">
        <button type="button" data-action="previous">Previous</button>
        <button type="button" data-action="next">Next</button>
        <button type="button" data-action="close">Close</button>
        <button type="button" data-action="reload">Reload</button>
        <button type="button" data-action="screen_off">Screen off</button>
        <button type="button" data-action="screen_on">Screen on</button>
        </div>
        <button id="forget" type="button">Forget the token</button>
        </div>
        <p id="message" role="status" aria-live="polite"></p>
        <noscript><p class="error">This page needs JavaScript; /status answers without it.</p></noscript>

        """#

    static let script = #"""

        "use strict";
        const byId = (id) => document.getElementById(id);
        const tokenKey = "vitrine.token";
        const interval = 3000;
        const labels = { previous: "Previous", next: "Next", close: "Close", reload: "Reload",
                         screen_off: "Screen off", screen_on: "Screen on" };
        let timer = 0, running = false, again = false, shownURL = null;

        function token() { return sessionStorage.getItem(tokenKey); }

        function say(text, isError) {
            byId("message").textContent = text;
            byId("message").className = isError ? "error" : "";
        }

        function showToken() {
            const known = token() !== null;
            byId("token-form").hidden = known;
            byId("actions").hidden = !known;
            if (!known) {
                byId("screenshot").hidden = true;
                byId("screen-note").hidden = false;
                byId("screen-note").textContent = "Enter the token to see the screen.";
            }
        }

        // What the kiosk said when it refused; a 401 forgets the token, so it can be entered again.
        async function refusal(response, what) {
            const text = (await response.text()).trim();
            if (response.status === 401) {
                sessionStorage.removeItem(tokenKey);
                showToken();
                return "The kiosk refused the token (" + text + "). Enter it again.";
            }
            return what + ": " + response.status + " " + text;
        }

        function duration(seconds) {
            const minutes = Math.floor(seconds / 60), hours = Math.floor(minutes / 60), days = Math.floor(hours / 24);
            if (days > 0) return days + " d " + (hours % 24) + " h";
            if (hours > 0) return hours + " h " + (minutes % 60) + " min";
            if (minutes > 0) return minutes + " min";
            return Math.floor(seconds) + " s";
        }

        async function refreshStatus() {
            try {
                const response = await fetch("/status", { cache: "no-store" });
                if (!response.ok) throw new Error(response.status + " " + (await response.text()).trim());
                const status = await response.json();
                byId("version").textContent = "version " + status.version;
                byId("state").textContent = status.state.replace(/_/g, " ") + (status.state_detail ? ": " + status.state_detail : "");
                const photo = status.current_photo;
                byId("current").textContent = (status.mode || "nothing")
                    + (photo ? ", photo " + (photo.index + 1) + " of " + status.photo_count + (photo.file ? ": " + photo.file : "") : "");
                byId("count").textContent = String(status.photo_count);
                byId("screen-on").textContent = status.screen_on ? "on" : "off";
                const display = status.display;
                byId("display").textContent = display
                    ? display.connector + " " + display.mode + (display.connected ? "" : " (unplugged)") : "none yet";
                byId("uptime").textContent = duration(status.uptime_seconds);
                byId("status-error").hidden = true;
            } catch (error) {
                byId("status-error").textContent = "Cannot read the status: " + error.message;
                byId("status-error").hidden = false;
            }
        }

        async function refreshScreenshot() {
            const known = token();
            if (known === null) return;
            try {
                const response = await fetch("/screenshot", { cache: "no-store", headers: { Authorization: "Bearer " + known } });
                if (response.ok) {
                    const url = URL.createObjectURL(await response.blob());
                    byId("screenshot").src = url;
                    byId("screenshot").hidden = false;
                    byId("screen-note").hidden = true;
                    if (shownURL) URL.revokeObjectURL(shownURL);
                    shownURL = url;
                } else if (response.status === 503) {
                    byId("screenshot").hidden = true;
                    byId("screen-note").hidden = false;
                    byId("screen-note").textContent = (await response.text()).trim();
                } else {
                    say(await refusal(response, "Screenshot"), true);
                }
            } catch (error) {
                byId("screen-note").textContent = "Cannot fetch the screenshot: " + error.message;
                byId("screen-note").hidden = false;
            }
        }

        function schedule(delay) {
            clearTimeout(timer);
            timer = setTimeout(refresh, delay);
        }

        // One refresh at a time; the next a few seconds after its answers, only while visible.
        async function refresh() {
            if (document.visibilityState !== "visible") return;
            if (running) { again = true; return; }
            running = true;
            again = false;
            try {
                await Promise.all([refreshStatus(), refreshScreenshot()]);
            } finally {
                running = false;
            }
            if (document.visibilityState === "visible") schedule(again ? 0 : interval);
        }

        async function act(action, button) {
            const known = token();
            if (known === null) return;
            button.disabled = true;
            try {
                const response = await fetch("/control", {
                    method: "POST", cache: "no-store",
                    headers: { Authorization: "Bearer " + known, "Content-Type": "application/json" },
                    body: JSON.stringify({ action: action }) });
                if (response.status === 202) {
                    say(labels[action] + ": taken.", false);
                    schedule(300);
                } else {
                    say(await refusal(response, labels[action]), true);
                }
            } catch (error) {
                say("Cannot reach the kiosk: " + error.message, true);
            } finally {
                button.disabled = false;
            }
        }

        byId("token-form").addEventListener("submit", (event) => {
            event.preventDefault();
            const entered = byId("token").value.trim();
            if (entered === "") return;
            sessionStorage.setItem(tokenKey, entered);
            byId("token").value = "";
            say("", false);
            showToken();
            schedule(0);
        });
        byId("forget").addEventListener("click", () => {
            sessionStorage.removeItem(tokenKey);
            say("The token is forgotten.", false);
            showToken();
        });
        for (const button of document.querySelectorAll("[data-action]")) {
            button.addEventListener("click", () => act(button.dataset.action, button));
        }
        document.addEventListener("visibilitychange", () => {
            if (document.visibilityState === "visible") schedule(0); else clearTimeout(timer);
        });
        showToken();
        schedule(0);

        """#
}
