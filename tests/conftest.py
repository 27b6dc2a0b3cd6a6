import os
import sys

# Tests import the firmware's rule package directly, exactly as deployed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware"))
