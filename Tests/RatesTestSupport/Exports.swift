// What the server and client tests share builds on the helpers every test target uses.
@_exported import RatesTestFixtures
