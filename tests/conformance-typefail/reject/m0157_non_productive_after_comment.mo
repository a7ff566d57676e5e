// The top level starts at its first token: this comment is not part of it.

type T = T;
