"""The festival's figures: the fairness audit and a simulated festival."""
