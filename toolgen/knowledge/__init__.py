"""What the platform knows about the world, below intent, memory and planner, which all read it from here."""
