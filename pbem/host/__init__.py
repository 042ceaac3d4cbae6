"""The site's shell: the command line, the daemon, the demo, the GM console, the site lock."""
