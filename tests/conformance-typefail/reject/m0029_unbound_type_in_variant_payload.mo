type Event = { #created : Stamp; #deleted };
let e : Event = #deleted;
e
