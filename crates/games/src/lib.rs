//! grundy-games: the game catalogue, each game a module over the core model.
