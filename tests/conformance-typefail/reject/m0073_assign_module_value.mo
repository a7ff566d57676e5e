module Config {
  public let size = 3;
};
Config.size := 4;
Config.size
