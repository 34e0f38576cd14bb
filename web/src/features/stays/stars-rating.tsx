export function StarsRating({ stars }: { stars: number }) {
  return (
    <span className="stars" role="img" aria-label={`${stars}-star hotel`}>
      {'★'.repeat(stars)}
    </span>
  );
}
