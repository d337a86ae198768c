"""The game's version: the one constant that bundle, deploy and the settings screen read."""

VERSION = "0.1.0"
