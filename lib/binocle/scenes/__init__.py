"""The screens of the game, one module each; the app keeps them on a stack."""
