# Makes the project root importable for the tests.
