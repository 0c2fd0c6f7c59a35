#!/usr/bin/env python3
"""Writes tests/fuzz/dict/<target>.dict: the string literals of each loader's source that look
like keys, names or keywords, plus the format's own magic bytes and punctuation. Run from the
repository root when a loader changes: python3 tests/fuzz/make_dicts.py"""
import pathlib
import re

SOURCES = {
    "network_json": ["snn/src/io/network_json.cpp", "snn/src/model/neuron_models.cpp"],
    "tennlab_json": ["hw_models/src/tennlab_json.cpp", "hw_models/src/tennlab_network.cpp",
                     "hw_models/src/risp_params.cpp", "hw_models/src/property_pack.cpp"],
    "processor_tool": ["hw_models/src/processor_tool.cpp", "hw_models/src/tool_session.cpp",
                       "hw_models/src/tool_queries.cpp", "hw_models/src/tennlab_json.cpp",
                       "hw_models/src/risp_params.cpp"],
    "danna2_net": ["danna/src/danna2_net_format.cpp"],
    "danna_programme": ["danna/src/grid_programme_json.cpp", "danna/src/grid_params.cpp"],
    "nir": ["snn/src/nir/nir_reader.cpp", "snn/src/nir/nir_primitives.cpp",
            "snn/src/nir/nir_datasets.cpp"],
    "keras_h5": ["convert/src/io/keras_reader.cpp", "convert/src/io/keras_layers.cpp",
                 "convert/src/io/keras_legacy.cpp"],
    "keras_weights_json": ["convert/src/io/keras_reader.cpp", "convert/src/io/keras_layers.cpp",
                 "convert/src/io/keras_legacy.cpp"],
    "volley_cnn_h5": ["convert/src/io/volley_h5_reader.cpp"],
    "converted_snn": ["convert/src/io/snn_h5_file.cpp"],
    "idx": [],
    "npz": ["snn/src/io/npz_file.cpp"],
    "npy": ["snn/src/io/npz_file.cpp"],
    "spike_csv": ["snn/src/io/spike_csv.cpp"],
    "sonata_spikes": ["snn/src/io/sonata_spike_reader.cpp", "snn/src/io/sonata_layout.hpp"],
    "checkpoint": ["snn/src/checkpoint/checkpoint_file.cpp"],
    "sonata_report": ["snn/src/io/sonata_report_reader.cpp", "snn/src/io/sonata_layout.hpp"],
    "weights_h5": ["snn/src/io/weights_file.cpp"],
}
JSON = ['"{"', '"}"', '"["', '"]"', '":"', '","', '"true"', '"false"', '"null"', '"1e308"',
        '"-1"', '"2147483648"', '"1e-400"', '"\\"\\""']
HDF5 = ['"\\x89HDF\\x0d\\x0a\\x1a\\x0a"', '"TREE"', '"HEAP"', '"SNOD"', '"OHDR"', '"OCHK"',
        '"GCOL"', '"FRHP"', '"FHDB"', '"FHIB"', '"FSHD"', '"BTHD"', '"BTIN"', '"BTLF"',
        '"\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff"']
EXTRA = {
    "idx": ['"\\x00\\x00\\x08\\x01"', '"\\x00\\x00\\x08\\x03"', '"\\x1f\\x8b\\x08"',
            '"\\xff\\xff\\xff\\xff"', '"\\x00\\x00\\x00\\x00"'],
    "npz": ['"PK\\x03\\x04"', '"PK\\x01\\x02"', '"PK\\x05\\x06"', '"PK\\x06\\x06"',
            '"\\x93NUMPY\\x01\\x00"', '".npy"', '"\\xff\\xff\\xff\\xff"'],
    "npy": ['"\\x93NUMPY\\x01\\x00"', '"\\x93NUMPY\\x02\\x00"', "\"'descr'\"",
            "\"'fortran_order'\"", "\"'shape'\"", '"<f8"', '">i4"', '"|b1"', '"True"',
            '"False"', '"(18446744073709551615,)"'],
    "spike_csv": ['"population,node_id,time_ms"', '"\\x0d\\x0a"', '"\\"\\""', '"nan"', '"inf"',
                  '"1e308"', '"18446744073709551616"', '"-0"'],
    "danna2_net": ['"w "', '" h "', '" l "', '" s "', '"N "', '"S "', '"I "', '"O "',
                   '"2147483648"', '"-2147483649"'],
    "processor_tool": ['"ML"', '"AS "', '"ASV "', '"RUN "', '"GSR"', '"OT"', '"OC"', '"OLF"',
                       '"GT"', '"NCH"', '"CA"', '"C"', '"EMPTYNET"', '"PARAMS"', '"Q"',
                       '"\\x0a"', '"1000000000"'],
}
JSON_TARGETS = {"network_json", "tennlab_json", "processor_tool", "danna_programme",
                "keras_weights_json"}
HDF5_TARGETS = {"nir", "keras_h5", "volley_cnn_h5", "converted_snn", "sonata_spikes", "sonata_report", "weights_h5", "checkpoint"}
literal = re.compile(r'"([A-Za-z_][A-Za-z0-9_./ -]{0,40})"')

root = pathlib.Path(__file__).resolve().parents[2]
for target, files in SOURCES.items():
    words = []
    for f in files:
        p = root / f
        if p.exists():
            words += literal.findall(p.read_text())
    entries = [f'"{w}"' for w in dict.fromkeys(words) if " " not in w or len(w) < 12]
    if target in JSON_TARGETS:
        entries = [f'"\\"{e[1:-1]}\\""' for e in entries] + JSON
    if target in HDF5_TARGETS:
        entries += HDF5
    entries += EXTRA.get(target, [])
    out = root / "tests/fuzz/dict" / f"{target}.dict"
    out.write_text(f"# {target}: written by tests/fuzz/make_dicts.py\n" +
                   "\n".join(dict.fromkeys(entries)) + "\n")
    print(out.relative_to(root), len(entries))
