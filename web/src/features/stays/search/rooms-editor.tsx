import {
  MAX_ADULTS_PER_ROOM,
  MAX_CHILD_AGE,
  MAX_CHILDREN_PER_ROOM,
  MAX_ROOMS,
} from '#shared/api/stay-values.ts';
import type { StayRoom } from '#shared/api/stays.ts';
import { useT } from '../../../i18n/use-t.ts';
import { fieldId } from '../../../lib/error-grammar.ts';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

export interface RoomsEditorProps {
  rooms: StayRoom[];
  onChange: (rooms: StayRoom[]) => void;
  errors: Record<string, string>;
}

/** Per-room occupancy: adults, children and each child's age, room by room. */
export function RoomsEditor({ rooms, onChange, errors }: RoomsEditorProps) {
  const t = useT();
  const updateRoom = (index: number, room: StayRoom) =>
    onChange(rooms.map((existing, position) => (position === index ? room : existing)));

  return (
    <fieldset className="rooms-editor" id={fieldId('rooms')} tabIndex={-1}>
      <legend>{t('stays.rooms.legend')}</legend>
      {errors.rooms && <p className="field-error">{errors.rooms}</p>}
      <ol className="rooms-list">
        {rooms.map((room, index) => {
          const number = index + 1;
          const adultsPath = `rooms.${index}.adults`;
          const childrenPath = `rooms.${index}.childrenAges`;
          return (
            <li key={index} className="room-card">
              <fieldset>
                <legend className="room-title">{t('stays.rooms.room', { room: number })}</legend>
                <div className="room-fields">
                  <div className="field">
                    <label className="field-label" htmlFor={fieldId(adultsPath)}>
                      {t('stays.rooms.adults')}
                    </label>
                    <select
                      id={fieldId(adultsPath)}
                      className="select"
                      value={room.adults}
                      aria-invalid={errors[adultsPath] ? true : undefined}
                      onChange={(event) => updateRoom(index, { ...room, adults: Number(event.target.value) })}
                    >
                      {range(1, MAX_ADULTS_PER_ROOM).map((value) => (
                        <option key={value} value={value}>
                          {value}
                        </option>
                      ))}
                    </select>
                    {errors[adultsPath] && <span className="field-error">{errors[adultsPath]}</span>}
                  </div>
                  <div className="field">
                    <label className="field-label" htmlFor={fieldId(childrenPath)}>
                      {t('stays.rooms.children')}
                    </label>
                    <select
                      id={fieldId(childrenPath)}
                      className="select"
                      value={room.childrenAges.length}
                      onChange={(event) => {
                        const count = Number(event.target.value);
                        const ages = room.childrenAges.slice(0, count);
                        while (ages.length < count) ages.push(8);
                        updateRoom(index, { ...room, childrenAges: ages });
                      }}
                    >
                      {range(0, MAX_CHILDREN_PER_ROOM).map((value) => (
                        <option key={value} value={value}>
                          {value}
                        </option>
                      ))}
                    </select>
                    {errors[childrenPath] && <span className="field-error">{errors[childrenPath]}</span>}
                  </div>
                  {room.childrenAges.map((age, childIndex) => (
                    <div className="field" key={childIndex}>
                      <label className="field-label" htmlFor={fieldId(`${childrenPath}.${childIndex}`)}>
                        {t('stays.rooms.childAge', { child: childIndex + 1 })}
                        <span className="visually-hidden"> {t('stays.rooms.inRoom', { room: number })}</span>
                      </label>
                      <select
                        id={fieldId(`${childrenPath}.${childIndex}`)}
                        className="select"
                        value={age}
                        onChange={(event) => {
                          const ages = room.childrenAges.map((value, position) =>
                            position === childIndex ? Number(event.target.value) : value,
                          );
                          updateRoom(index, { ...room, childrenAges: ages });
                        }}
                      >
                        {range(0, MAX_CHILD_AGE).map((value) => (
                          <option key={value} value={value}>
                            {value}
                          </option>
                        ))}
                      </select>
                    </div>
                  ))}
                </div>
                {rooms.length > 1 && (
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    onClick={() => onChange(rooms.filter((_, position) => position !== index))}
                  >
                    {t('stays.rooms.remove', { room: number })}
                  </button>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      {rooms.length < MAX_ROOMS && (
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => onChange([...rooms, { adults: 1, childrenAges: [] }])}
        >
          {t('stays.rooms.add')}
        </button>
      )}
    </fieldset>
  );
}
