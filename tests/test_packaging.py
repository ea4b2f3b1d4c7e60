"""The installed program must carry every package, the schemas and the data."""
import tomllib

from conftest import ROOT


def _mapping():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools = project["tool"]["setuptools"]
    return setuptools["packages"], setuptools["package-dir"]


def test_every_python_package_is_listed_for_the_wheel():
    packages, package_dir = _mapping()
    expected = set()
    for name, folder in package_dir.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            if any(part.startswith((".", "__")) for part in rel.parts):
                continue
            expected.add(".".join([name, *rel.parts]))
    assert expected <= set(packages), f"add to pyproject packages: {sorted(expected - set(packages))}"


def test_schemas_and_data_are_found_through_the_installed_package():
    from importlib import resources

    assert (resources.files("sandtable.schemas") / "pack.schema.json").is_file()
    assert (resources.files("sandtable.data") / "desert-steel" / "pack.json").is_file()
