"""The farm's dependencies. The client package (tools/python beside this folder) is not on the
public index, so it is named by its path, found from this file: ``pip install tools/farm`` alone
installs it too, and installing both folders at once installs it once."""

from pathlib import Path

from setuptools import setup

CLIENT = Path(__file__).resolve().parent.parent / "python"

setup(install_requires=[
    f"tessera-engine-client @ {CLIENT.as_uri()}",
    "ray>=2.9",
    "cmaes>=0.10",
    "matplotlib>=3.5",
    "tqdm>=4.60",
])
