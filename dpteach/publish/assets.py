"""Offline assets: what a built page would otherwise fetch from a CDN, copied next to it.

MathJax comes from the PyPI package jupyter-server-mathjax; require.js, the widget renderer
(@jupyter-widgets/html-manager), reveal.js, jQuery and MathJax's TeX fonts come from the npm
registry, fetched with ``npm pack`` into a cache (``build/npm-cache`` of the project).
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

#: npm packages for offline pages: (name, version, {path in package: path in the pages' assets/}).
NPM_ASSETS = [
    ("requirejs", "2.3.8", {"require.js": "require.js"}),
    ("@jupyter-widgets/html-manager", "1.0.15", {"dist": "html-manager"}),
]
REVEAL = ("reveal.js", "4.6.1", {"dist": "reveal.js/dist", "plugin": "reveal.js/plugin"})
JQUERY = ("jquery", "3.7.1", {"dist/jquery.min.js": "jquery.min.js"})
MATHJAX_TEX_FONTS = ("mathjax", "2.7.9", {"fonts/HTML-CSS/TeX/otf": "mathjax/fonts/HTML-CSS/TeX/otf"})


def npm_pack(name: str, version: str, cache: Path) -> Path:
    """The package tarball from the npm registry (via npm itself), cached in ``cache``."""
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    stem = name.lstrip("@").replace("/", "-")
    tgz = cache / f"{stem}-{version}.tgz"
    if not tgz.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("offline builds need npm (Debian: apt-get install -y npm) to fetch "
                               f"{name}@{version} from the npm registry")
        subprocess.run([npm, "pack", "--silent", f"{name}@{version}", "--pack-destination", str(cache)],
                       check=True, capture_output=True)
    return tgz


def extract(tgz: Path, mapping: dict[str, str], dest: Path) -> None:
    """Copy the files under each ``mapping`` key of an npm tarball to ``dest``/its value (no source maps)."""
    with tarfile.open(tgz) as tar:
        for member in tar:          # in archive order: each file is read as the stream passes it
            if not member.isfile() or member.name.endswith(".map"):
                continue
            inner = member.name.split("/", 1)[1]          # drop the leading "package/"
            for src, target in mapping.items():
                if inner == src or inner.startswith(src + "/"):
                    path = dest / target / inner[len(src):].lstrip("/") if inner != src else dest / target
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(tar.extractfile(member).read())


def copy_offline_assets(dest: Path, cache: Path, reveal: bool = False) -> dict[str, str]:
    """Put MathJax, require.js and the widget renderer (and reveal.js) under ``dest``/assets.

    Returns the nbconvert settings that point the pages at them (relative URLs).
    """
    import jupyter_server_mathjax

    assets = Path(dest) / "assets"
    mathjax = Path(jupyter_server_mathjax.__file__).parent / "static"
    if not (assets / "mathjax" / "MathJax.js").exists():
        shutil.copytree(mathjax, assets / "mathjax", dirs_exist_ok=True)
    for name, version, mapping in NPM_ASSETS + ([REVEAL, JQUERY] if reveal else []):
        extract(npm_pack(name, version, cache), mapping, assets)
    settings = {
        "mathjax_url": "assets/mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe",
        "require_js_url": "assets/require.js",
        "widget_renderer_url": "assets/html-manager/embed-amd.js",
    }
    if reveal:
        settings["reveal_url_prefix"] = "assets/reveal.js"
        settings["jquery_url"] = "assets/jquery.min.js"
    return settings


def book_assets(work: Path, cache: Path) -> Path:
    """MathJax, require.js and the widget renderer for the book's ``_static/``, plus the fonts they ask for."""
    copy_offline_assets(work, cache)
    assets = Path(work) / "assets"
    # The widget renderer finds its icon fonts (FontAwesome .woff2/.woff/.ttf, in the bundle)
    # beside its modules' URLs, which require.js derives from their names (@jupyter-widgets/…,
    # i.e. a folder beside the page): point those names at the bundle's folder.
    (assets / "dpteach-require-paths.js").write_text(
        "var require = {paths: {'@jupyter-widgets': '_static/html-manager',\n"
        "                       '@jupyter-widgets/html-manager/dist': '_static/html-manager'}};\n")
    # MathJax's TeX fonts (assistive MathML and a few symbols ask for them; the PyPI copy has STIX-Web only).
    extract(npm_pack(*MATHJAX_TEX_FONTS[:2], cache), MATHJAX_TEX_FONTS[2], assets)
    return assets
