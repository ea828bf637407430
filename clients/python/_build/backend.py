"""A PEP 517 build backend for errdex's client: the package's files in a
wheel, with its metadata and its pytest entry point. Standard library only,
so that pip builds it offline with nothing to fetch."""

import base64
import hashlib
import os
import zipfile

NAME = "errdex"
VERSION = "0.1.0"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIST_INFO = "%s-%s.dist-info" % (NAME, VERSION)

METADATA = """Metadata-Version: 2.1
Name: errdex
Version: %s
Summary: Explains Python errors where they are printed, with the answers of a running errdex serve
Requires-Python: >=3.8
""" % VERSION
WHEEL = "Wheel-Version: 1.0\nGenerator: errdex-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
ENTRY_POINTS = "[pytest11]\nerrdex = errdex.pytest_plugin\n"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def _package_files():
    """The package's .py files, its folders' too (errdex/_boot)."""
    root = os.path.join(HERE, NAME)
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, HERE).replace(os.sep, "/")
        for name in sorted(names):
            if name.endswith(".py"):
                yield "%s/%s" % (rel, name), os.path.join(folder, name)


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (arcname, digest, len(data))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    filename = "%s-%s-py3-none-any.whl" % (NAME, VERSION)
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        def add(arcname, data):
            wheel.writestr(arcname, data)
            records.append(_record_line(arcname, data))
        for arcname, path in _package_files():
            with open(path, "rb") as f:
                add(arcname, f.read())
        add(DIST_INFO + "/METADATA", METADATA.encode())
        add(DIST_INFO + "/WHEEL", WHEEL.encode())
        add(DIST_INFO + "/entry_points.txt", ENTRY_POINTS.encode())
        records.append(DIST_INFO + "/RECORD,,")
        wheel.writestr(DIST_INFO + "/RECORD", "\n".join(records) + "\n")
    return filename


def build_sdist(sdist_directory, config_settings=None):
    import tarfile
    base = "%s-%s" % (NAME, VERSION)
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as sdist:
        for rel in ["pyproject.toml", "README.md", "_build/backend.py"] + [a for a, _ in _package_files()]:
            sdist.add(os.path.join(HERE, rel), arcname=base + "/" + rel)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = METADATA.encode()
        info.size = len(data)
        import io
        sdist.addfile(info, io.BytesIO(data))
    return filename
