// Prints a Parquet file as read by hyparquet, an independent reader in
// pure JavaScript: first a line with the file's schema (every element's
// name, physical type, logical type and repetition, depth first) and its
// key/value metadata, then one JSON object per row. INT64 values, which hyparquet gives as
// BigInt, are printed as numbers (nlsat's are far below 2^53).
//
//   node scripts/hyparquet/read.mjs FILE.parquet
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet'

const file = await asyncBufferFromFile(process.argv[2])
const metadata = await parquetMetadataAsync(file)
const schema = metadata.schema.map(e => ({
  name: e.name,
  type: e.type ?? null,
  logical: e.logical_type?.type ?? e.converted_type ?? null,
  repetition: e.repetition_type ?? null,
  children: e.num_children ?? 0,
}))
const key_value_metadata = (metadata.key_value_metadata ?? []).map(({ key, value }) => ({ key, value }))
const out = [JSON.stringify({ schema, row_groups: metadata.row_groups.map(g => Number(g.num_rows)), key_value_metadata })]
const rows = await parquetReadObjects({ file, metadata })
const replacer = (_, v) => typeof v === 'bigint' ? Number(v) : v
for (const row of rows) out.push(JSON.stringify(row, replacer))
process.stdout.write(out.join('\n') + '\n')
