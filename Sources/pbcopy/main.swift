import FerryCommandLine

PBCopy.main()
