import FerryCommandLine

PBPaste.main()
