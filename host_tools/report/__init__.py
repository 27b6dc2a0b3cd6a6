"""The festival's figures behind `bobing report`: the fairness audit."""
