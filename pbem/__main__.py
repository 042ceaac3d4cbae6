import sys

if __name__ == "__main__":  # not when a worker process imports it (spawn imports the main module)
    from pbem.host.cli import main

    sys.exit(main())
