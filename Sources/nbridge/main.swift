import ArgumentParser
import Glibc

NBridgeCommand.mainWithUsageStatus()
