// Tests that import NBridgeTesting get the echo test plugin with it.
@_exported import NBridgeEcho
