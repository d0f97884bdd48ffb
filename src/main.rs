fn main() { println!("codevs-reborn"); }
