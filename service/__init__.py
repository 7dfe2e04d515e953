"""Write side of Nemesis Archive: the rules of each game (pure) and the application that records facts."""
