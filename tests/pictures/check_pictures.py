#!/usr/bin/env python3
"""The pictures and the report are well-formed, for every kernel of the teaching catalogue.

For each kernel in kernels/fences, kernels/litmus and kernels/barriers (issue 14, "Done when"
1 and 2): `fencelab draw --graph` and `--timeline` and `fencelab report` must succeed, each SVG
must parse as XML (xml.etree, a real parser) with an <svg> root and something drawn in it, and
the report must parse both as XML and with html.parser and hold the sections it promises. For
kernels/warps, `draw --warps` under --warp its and --warp lockstep. Bad input must give exit
status 2 with a message, never a crash.

    check_pictures.py FENCELAB_BINARY SOURCE_DIR [OUTPUT_DIR]
"""
import html.parser
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

SVG = "{http://www.w3.org/2000/svg}"


def run(binary, arguments, expect=(0,)):
    """Runs fencelab; `expect`: the exit codes that count as success (README "Exit codes")."""
    result = subprocess.run([binary] + arguments, capture_output=True, text=True, timeout=600)
    if result.returncode not in expect:
        raise AssertionError(f"{' '.join(arguments)}: exit {result.returncode}, expected {expect}\n"
                             f"{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return result


def check_svg(path):
    root = ElementTree.parse(path).getroot()
    if root.tag != SVG + "svg":
        raise AssertionError(f"{path}: the root is {root.tag}, not svg")
    shapes = [e for e in root.iter() if e.tag in (SVG + "rect", SVG + "path", SVG + "line", SVG + "circle")]
    texts = [e for e in root.iter() if e.tag == SVG + "text" and (e.text or "").strip()]
    if len(shapes) < 3 or not texts:
        raise AssertionError(f"{path}: nearly empty ({len(shapes)} shapes, {len(texts)} texts)")
    # Self-contained: no scripts, no external references.
    for element in root.iter():
        if element.tag in (SVG + "script", SVG + "image", SVG + "foreignObject"):
            raise AssertionError(f"{path}: has a {element.tag}")
        for name, value in element.attrib.items():
            if name.endswith("href") and not value.startswith("#"):
                raise AssertionError(f"{path}: refers to {value}")


class Sections(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.tags = []
        self.external = []

    def handle_starttag(self, tag, attributes):
        self.tags.append(tag)
        for name, value in attributes:
            if name == "id":
                self.ids.add(value)
            if name in ("src", "href") and value and not value.startswith("#"):
                self.external.append(value)


def check_report(path):
    ElementTree.parse(path)  # XHTML-compatible: every element closed
    parser = Sections()
    with open(path, encoding="utf-8") as page:
        parser.feed(page.read())
    parser.close()
    for section in ("source", "outcomes", "weak", "diagnostics", "expectations"):
        if section not in parser.ids:
            raise AssertionError(f"{path}: no #{section} section")
    if "script" in parser.tags or parser.external:
        raise AssertionError(f"{path}: not self-contained ({parser.external[:3]})")
    # Each weak outcome has its execution graph.
    with open(path, encoding="utf-8") as page:
        text = page.read()
    weak = text.count("weak: sc forbids it")
    graphs = text.count("<title>") - 1  # every SVG has a title, and so has the page
    if weak and graphs < min(weak, 12):
        raise AssertionError(f"{path}: {weak} weak outcomes but {graphs} pictures")


def main():
    binary, source = sys.argv[1], sys.argv[2]
    output = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="fencelab-pictures-")
    os.makedirs(output, exist_ok=True)
    checked = 0
    failures = []
    for folder in ("fences", "litmus", "barriers"):
        directory = os.path.join(source, "kernels", folder)
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".cu"):
                continue
            kernel = os.path.join(directory, name)
            stem = os.path.join(output, f"{folder}-{name[:-3]}")
            try:
                run(binary, ["draw", kernel, "--graph", "-o", stem + "-graph.svg"])
                check_svg(stem + "-graph.svg")
                run(binary, ["draw", kernel, "--timeline", "-o", stem + "-timeline.svg"])
                check_svg(stem + "-timeline.svg")
                # 1: a search of the report was cut short (inconclusive); the page is written all the same.
                run(binary, ["report", kernel, "-o", stem + ".html"], expect=(0, 1))
                check_report(stem + ".html")
                checked += 1
            except (AssertionError, ElementTree.ParseError, subprocess.TimeoutExpired) as error:
                failures.append(f"{kernel}: {error}")
    directory = os.path.join(source, "kernels", "warps")
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".cu"):
            continue
        for mode in ("its", "lockstep"):
            picture = os.path.join(output, f"warps-{name[:-3]}-{mode}.svg")
            try:
                run(binary, ["draw", os.path.join(directory, name), "--warps", "--warp", mode, "-o", picture])
                check_svg(picture)
                checked += 1
            except (AssertionError, ElementTree.ParseError, subprocess.TimeoutExpired) as error:
                failures.append(f"{name} --warp {mode}: {error}")
    # explain --svg and check --svg write their pictures beside the text; replay --timeline
    # draws in the terminal.
    try:
        kernel = os.path.join(source, "kernels", "fences", "write_read_xy.cu")
        explained = os.path.join(output, "explain-svg")
        result = run(binary, ["explain", kernel, "gpu:021101", "--svg", explained])
        if "forbids" not in result.stdout:
            raise AssertionError("explain --svg: the text is missing")
        for name in ("witness-graph.svg", "witness-timeline.svg"):
            check_svg(os.path.join(explained, name))
        checked_dir = os.path.join(output, "check-svg")
        barrier = os.path.join(source, "kernels", "barriers", "incorrect_barrier_example.cu")
        run(binary, ["check", barrier, "--svg", checked_dir])  # its divergence is announced: exit 0
        pictures = [n for n in os.listdir(checked_dir) if n.endswith("-timeline.svg")]
        if not pictures:
            raise AssertionError("check --svg wrote no timeline")
        for name in pictures:
            check_svg(os.path.join(checked_dir, name))
        lines = run(binary, ["replay", barrier, "sc:", "--timeline", "--width", "60"]).stdout.splitlines()
        lanes = [line for line in lines if line.startswith("(0, ")]
        if len(lanes) != 4 or any(len(line) > 60 for line in lanes) or "✕" not in "".join(lanes):
            raise AssertionError("replay --timeline: " + "\n".join(lines))
        checked += 1
    except (AssertionError, ElementTree.ParseError, OSError) as error:
        failures.append(f"explain/check --svg, replay --timeline: {error}")
    # Bad input: a clear message and exit 2.
    kernel = os.path.join(source, "kernels", "fences", "write_read_xy.cu")
    for arguments in (["draw", kernel, "gpu:zz!"], ["draw", kernel, "--graph", "--timeline"],
                      ["draw", kernel, "--no-such-flag"], ["report", kernel], ["draw", kernel, "sc:0999999"]):
        try:
            result = run(binary, arguments, expect=(2,))
            if not result.stderr.strip():
                failures.append(f"{' '.join(arguments)}: exit 2 but no message")
        except AssertionError as error:
            failures.append(str(error))
    for failure in failures:
        print("FAILED:", failure)
    print(f"{checked} kernels drawn and reported; {len(failures)} failures; pictures in {output}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
