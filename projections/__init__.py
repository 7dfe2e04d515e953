"""Read side: views rebuilt from the Games event stream, each with its own tracking position."""
