#pragma once
// cuBLAS and cuBLASLt, loaded when the first call needs them rather than when the process starts.
// Linked, libcublasLt's start-up alone took 0.28 s and 150 MB of resident memory in every process
// (every rank of every command, `report` and `compare` too, the CPU backend's), before main. The
// executable links neither library: CublasLibrary.cpp defines each cuBLAS function gpuscale calls,
// with the header's own signature, as a call through the library opened on first use (dlopen of
// libcublasLt.so.MAJOR / libcublas.so.MAJOR, MAJOR the headers' CUBLAS_VER_MAJOR). A library that
// cannot be opened, or lacks a function, is a LibraryError (exit 3) at that call, naming both.
// A new cuBLAS function called anywhere needs its line there, or the link fails.

namespace gpuscale::harness {

// Whether libcublasLt is in the process: opened by a call through it (or by a library that opened it).
bool cublas_lt_loaded();

}  // namespace gpuscale::harness
